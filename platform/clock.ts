/** The time source of a request; tests pass a fixed or advancing clock. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
