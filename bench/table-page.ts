// An app-like page for snapshot benchmarks: a header with navigation, and a table whose every row holds
// text cells, a three-option select, a button and a link — the shape of admin tables agents work through.

const STATUSES = ['Open', 'Pending', 'Closed'] as const;

function rowHtml(index: number): string {
  const status = STATUSES[index % STATUSES.length];
  const options = STATUSES.map(
    (label) =>
      `<option value="${label.toLowerCase()}"${label === status ? ' selected' : ''}>${label}</option>`,
  ).join('');
  return (
    `<tr><td>${index + 1}</td><td>Customer ${index + 1}</td><td><span class="amount">${(index * 7.31).toFixed(2)}</span> EUR</td>` +
    `<td><select aria-label="Status of order ${index + 1}">${options}</select></td>` +
    `<td><button type="button">Edit</button> <a href="#order-${index + 1}">Details</a></td></tr>`
  );
}

/** A complete HTML document with `rows` table rows. */
export function tablePageHtml(rows: number): string {
  const body = Array.from({ length: rows }, (_, index) => rowHtml(index)).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Orders</title>
  <style>
    body { font: 14px system-ui, sans-serif; margin: 0; }
    header { display: flex; gap: 16px; align-items: center; padding: 8px 16px; background: #234; color: #fff; }
    header a { color: #fff; }
    main { padding: 16px; }
    td, th { padding: 2px 8px; text-align: left; }
  </style>
</head>
<body>
  <header>
    <h1>Back office</h1>
    <nav aria-label="Main"><a href="#orders">Orders</a> <a href="#customers">Customers</a> <a href="#settings">Settings</a></nav>
    <input type="search" placeholder="Search orders" />
  </header>
  <main>
    <table>
      <caption>Orders (${rows})</caption>
      <thead><tr><th>Number</th><th>Customer</th><th>Amount</th><th>Status</th><th>Actions</th></tr></thead>
      <tbody>
${body}
      </tbody>
    </table>
  </main>
  <footer><p>Back office demo</p></footer>
</body>
</html>`;
}
