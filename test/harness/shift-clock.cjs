// Preloaded (NODE_OPTIONS=--require) into a test server to make its clock run
// X3D_TEST_CLOCK_SHIFT_MS ahead (or behind), as another machine's clock may: Date.now()
// and `new Date()` move, timers do not.
const shift = Number(process.env.X3D_TEST_CLOCK_SHIFT_MS || 0);
if (shift) {
  const RealDate = Date;
  const realNow = RealDate.now;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + shift);
      else super(...args);
    }
    static now() {
      return realNow() + shift;
    }
  }
  globalThis.Date = ShiftedDate;
}
