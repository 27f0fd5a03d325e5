// A fault-suite app whose main process passes through Node's next-tick queue without pause, as a busy app's
// does: each immediate queues a tick and the next immediate, so an inspector evaluation often interrupts it
// while Node drains that queue. Every 200 ms it says, from a next tick of its own, that its ticks still run.
const { app } = require('electron');

let own = 0;
const churn = () => {
  process.nextTick(() => {});
  setImmediate(churn);
};

app.whenReady().then(() => {
  churn();
  setInterval(() => process.nextTick(() => console.log(`tick-churn: own tick ${++own}`)), 200);
  console.log('tick-churn: ready');
});
