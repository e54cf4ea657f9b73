// A few helpers for building the page from plain DOM calls, and for drawing cards.

import { cardLabel, cardName, isRed } from "./cards.js";

/**
 * An element with attributes (``on*`` functions become listeners) and children.
 * @param {string} tag
 * @param {Record<string, string | number | boolean | ((event: Event) => void) | undefined>} [attributes]
 * @param {(Node | string | null | undefined | false)[]} [children]
 * @returns {HTMLElement}
 */
export function el(tag, attributes = {}, children = []) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/**
 * Draws ``next`` as ``parent``'s children, keeping each child that equals its replacement (its
 * listeners aside): a button pressed while the page redraws for something else (a live event,
 * an answer about another table) is still there when it is released, so the click is made
 * (a browser sends no click when the pressed element was removed before the release).
 * @param {HTMLElement} parent
 * @param {Node[]} next
 */
export function redraw(parent, next) {
  next.forEach((node, index) => {
    const was = parent.childNodes[index];
    if (!was) parent.append(node);
    else if (!was.isEqualNode(node)) parent.replaceChild(node, was);
  });
  while (parent.childNodes.length > next.length) parent.lastChild?.remove();
}

/**
 * A card face: a button when it can be played (``onClick``), otherwise a plain figure; both
 * carry the card's spoken name.
 * @param {string} card
 * @param {((event: Event) => void) | undefined} [onClick]
 * @param {string} [hint] what clicking does, for the spoken name
 */
export function cardFace(card, onClick, hint) {
  const attributes = {
    class: `card ${isRed(card) ? "red" : "black"}`,
    "data-card": card,
    "aria-label": hint ? `${cardName(card)}, ${hint}` : cardName(card),
    title: cardName(card),
  };
  if (onClick) return el("button", { ...attributes, type: "button", onclick: onClick }, [cardLabel(card)]);
  return el("span", { ...attributes, role: "img" }, [cardLabel(card)]);
}

/** A row of face-up cards. @param {string[]} cards @param {string} label */
export function cardRow(cards, label) {
  return el("span", { class: "cards", role: "group", "aria-label": label }, cards.map((card) => cardFace(card)));
}

/** @param {string} text */
export function heading(text) {
  return el("h2", {}, [text]);
}
