// A fault-suite app that becomes ready but never opens a window: a launch of it stays STARTING until its
// first-window wait ends, so the gateway can be signalled while the launch is in progress.
const { app } = require('electron');

app.whenReady().then(() => console.log('windowless: ready'));
