const path = require("path");

class Router {
  routes = [];
  handle = (req) => {
    return this.routes.find((r) => r.match(req));
  };
  add(route) {
    this.routes.push(route);
  }
}

function* ids() {
  yield 1;
}

module.exports.start = function () {
  listen();
};

app.get = (url) => {
  fetch(url);
};

const api = {
  ping() {
    return "pong";
  },
  pong: () => "ping",
};

[1].forEach(function (n) {
  console.log(n);
});
