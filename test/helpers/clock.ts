/** A clock tests can move: `clock.now` is the Clock, `advance(ms)` moves it. */
export function manualClock(start: string) {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    advance(ms: number) {
      at += ms;
    },
    set(iso: string) {
      at = Date.parse(iso);
    },
  };
}
