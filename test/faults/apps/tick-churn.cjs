// A fault-suite app whose main process passes through Node's next-tick queue without pause, as a busy app's
// does: eight chains of immediates, each queueing a tick and its next immediate, so an inspector evaluation
// often interrupts it while Node drains that queue (one chain left the old inject failing in half the runs,
// eight in every run). Every 200 ms it says, from a next tick of its own, that its ticks still run.
const { app } = require('electron');

let own = 0;
const churn = () => {
  process.nextTick(() => {});
  setImmediate(churn);
};

app.whenReady().then(() => {
  for (let chain = 0; chain < 8; chain += 1) churn();
  setInterval(() => process.nextTick(() => console.log(`tick-churn: own tick ${++own}`)), 200);
  console.log('tick-churn: ready');
});
