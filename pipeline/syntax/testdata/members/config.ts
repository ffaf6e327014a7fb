export const MAX = 10, handler = () => 1;
const LOCAL = 2;
export let mode: string;

export class Config {
  public name: string = "x";
  private secret = 1;
  #hidden = 2;
  static readonly DEFAULT = { retries: 3, timeout: 30, backoff: "exponential", jitter: true };
  onChange = () => {};
  run() {
    const inside = 1;
  }
}

class Internal {
  value = 1;
}

export interface Options {
  retries: number;
  readonly timeout?: number;
  describe(): string;
}

export enum Level {
  Low,
  High = 2,
}

namespace NS {
  export const Hidden = 1;
}
