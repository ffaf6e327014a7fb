import { x } from "y";

export class Widget extends Base {
  private size = 1;
  onClick = () => {
    this.size++;
  };
  constructor(n: number) {
    super();
  }
  get area(): number {
    return this.size * 2;
  }
  @log
  render() {
    [1, 2].map((v) => v * 2);
  }
}

export interface Shape {
  area(): number;
}

export enum Color {
  Red,
}

namespace Util {
  export function clamp(v: number) {
    return v;
  }
}

export const handler = async (req: Request) => {
  const inner = () => req;
  return inner();
};

let legacy = function () {
  return 1;
};

setTimeout(() => {
  tick();
}, 10);
