export const VERSION = "1.0";
export var counter = 0;
let local = 1;

export class Store {
  size = 0;
  #items = [];
  static LIMIT = 100;
  push = (x) => this.#items.push(x);
}
