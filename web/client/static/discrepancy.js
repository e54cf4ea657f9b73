// What the verifier says when a record breaks the audit scheme or the rules: the first thing
// that does not hold, named as `gin verify` names it ("game 2 hand 4, version 140: Scored
// says 23 points, the rules give 21").

export class Discrepancy extends Error {}

/** @param {string} message @returns {never} */
export function fail(message) {
  throw new Discrepancy(message);
}

/** "scored" → "Scored", "laid_off" → "LaidOff": the names `gin verify` gives events. @param {string} type */
export const eventName = (type) => type.replace(/(^|_)([a-z])/g, (_, __, letter) => letter.toUpperCase());

/** @param {unknown} value */
export const show = (value) => JSON.stringify(value);

/**
 * One recorded event under check, and the ways to name what is wrong with it.
 */
export class Checking {
  /** @param {any} event its data, parsed @param {string} where "game 1 hand 3, version 51" */
  constructor(event, where) {
    this.event = event;
    this.where = where;
    this.name = eventName(String(event?.type));
  }

  /** @param {string} message @returns {never} */
  fail(message) {
    return fail(`${this.where}: ${message}`);
  }

  /** The event is no move the rules allow here. @param {string} why @returns {never} */
  refuse(why) {
    return this.fail(`${this.name} breaks the rules: ${why}`);
  }

  /** The event's field must be `want`. @param {string} field @param {unknown} want */
  expect(field, want) {
    const have = this.event[field];
    if (show(have) === show(want)) return;
    if (field === "points" && this.event.type === "scored") this.fail(`Scored says ${show(have)} points, the rules give ${show(want)}`);
    this.fail(`${this.name} says ${field} ${show(have)}, the rules give ${show(want)}`);
  }

  /** The event is one of `types`. @param {...string} types */
  only(...types) {
    if (!types.includes(this.event.type)) this.fail(`the record has ${this.name} where the rules give ${types.map(eventName).join(" or ")}`);
  }
}
