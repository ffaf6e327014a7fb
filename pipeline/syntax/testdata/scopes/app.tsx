import React from "react";

export function App(props: Props) {
  return <div onClick={() => go(props)}>hi</div>;
}

const Button = ({ label }: { label: string }) => (
  <button>{label}</button>
);

export default App;
