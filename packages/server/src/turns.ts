/**
 * Long work on the event loop, in turns that give way to requests (issue 31: one account cannot slow the
 * others). The event loop answers every client, so work that runs for tens of ms at once (writing a TMX
 * import's segments, compiling a 10 MiB glossary, deleting a large memory) holds every other request up that
 * long; split into turns handed back with `setImmediate` alone, it still takes a turn between each two steps of
 * a short request (its body, its handler, its engine, its answer), and a short request takes several.
 *
 * So long work runs in small steps (`inTurns`: a turn lasts about `TURN_MS`), and its next turn
 * (`nextTurn`) waits while a young request (started less than `YOUNG_MS` ago, not yet answered) is in
 * flight, at most `MAX_WAIT_MS` a turn: a short request runs through without the long work's turns between
 * its steps; a long request (older than `YOUNG_MS`) is long work itself and does not hold others back.
 * Requests are seen through Node's HTTP diagnostics channels, whatever server (or servers) the process runs.
 */
import { subscribe } from 'node:diagnostics_channel';

/** How long a turn of long work holds the event loop at most (plus its last step), ms. */
export const TURN_MS = 2;
/** A request in flight for less than this is young: long work waits for it, ms. */
export const YOUNG_MS = 50;
/** The longest a turn of long work waits for young requests, ms. */
export const MAX_WAIT_MS = 20;

/** Requests in flight by when they started (oldest first: a Map keeps the order of insertion). */
const inFlight = new Map<object, number>();
/** Turns of long work waiting for the young requests to end. */
let waiting: (() => void)[] = [];

subscribe('http.server.request.start', (message) => {
  inFlight.set((message as { request: object }).request, performance.now());
});
subscribe('http.server.response.finish', (message) => {
  inFlight.delete((message as { request: object }).request);
  if (waiting.length > 0 && !youngInFlight()) wake();
});

/** Whether a young request is in flight; forgets the ones no longer young (also those never answered). */
function youngInFlight(): boolean {
  const old = performance.now() - YOUNG_MS;
  for (const [request, started] of inFlight) {
    if (started > old) return true;
    inFlight.delete(request);
  }
  return false;
}

function wake(): void {
  const woken = waiting;
  waiting = [];
  for (const resolve of woken) resolve();
}

/**
 * Resolves on a next turn of the event loop (after the I/O waiting now, `setImmediate`), once no young
 * request is in flight or after `MAX_WAIT_MS`.
 */
export async function nextTurn(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (!youngInFlight()) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(wake, MAX_WAIT_MS);
    waiting.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Runs `step` until it returns false, handing the event loop back (`nextTurn`) after each `turnMs` of steps;
 * each turn starts once `ready` (if given) has settled (a write waits for threads' writes on its database).
 */
export async function inTurns(
  step: () => boolean,
  turnMs = TURN_MS,
  ready?: () => Promise<void>,
): Promise<void> {
  for (;;) {
    if (ready) await ready();
    const start = performance.now();
    let more = step();
    while (more && performance.now() - start < turnMs) more = step();
    if (!more) return;
    await nextTurn();
  }
}
