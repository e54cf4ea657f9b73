export async function replayScreen(/** @type {HTMLElement} */ root, /** @type {string | null} */ matchId) { root.textContent = String(matchId); }
