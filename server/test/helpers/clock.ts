/** A clock the tests move by hand (pass `now` as the context's clock), so expiry is tested without waiting. */
export function manualClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms;
    },
    reset() {
      offset = 0;
    },
  };
}
