// The dashboard app of orders_app.hcl. It runs in the host's sandboxed
// frame and talks to the host through the MCP Apps SDK only: the result of
// customer_totals arrives as a notification, and the app calls
// open_order_list and cancel_order (tools for the app only) through the
// host, which may ask the user first. Values from the database are written
// as text, never as markup.
import { App } from "@modelcontextprotocol/ext-apps";

const SVG = "http://www.w3.org/2000/svg";
const app = new App({ name: "Order dashboard", version: "1.0.0" });

const money = (n) => Number(n).toFixed(2);

function setStatus(text, isError = false) {
  const el = document.getElementById("status");
  el.textContent = text;
  el.classList.toggle("error", isError);
}

function textOf(result) {
  return (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

// drawChart draws one horizontal bar per customer, scaled to the largest total.
function drawChart(customers) {
  const svg = document.getElementById("chart");
  svg.replaceChildren();
  const rowHeight = 28, labelWidth = 90, valueWidth = 70, width = 480;
  const max = Math.max(1, ...customers.map((c) => Number(c.total)));
  svg.setAttribute("viewBox", `0 0 ${width} ${customers.length * rowHeight}`);
  svg.removeAttribute("height"); // the width sets it, through the viewBox
  customers.forEach((c, i) => {
    const y = i * rowHeight;
    const g = document.createElementNS(SVG, "g");
    g.dataset.customer = c.customer;
    g.dataset.total = money(c.total);
    g.dataset.orders = String(c.orders);
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", "0");
    label.setAttribute("y", String(y + 18));
    label.textContent = c.customer;
    const bar = document.createElementNS(SVG, "rect");
    bar.setAttribute("class", "bar");
    bar.setAttribute("x", String(labelWidth));
    bar.setAttribute("y", String(y + 4));
    bar.setAttribute("height", String(rowHeight - 8));
    bar.setAttribute("width", String(Math.max(1, (Number(c.total) / max) * (width - labelWidth - valueWidth))));
    const value = document.createElementNS(SVG, "text");
    value.setAttribute("x", String(width - valueWidth + 6));
    value.setAttribute("y", String(y + 18));
    value.textContent = `${money(c.total)} (${c.orders})`;
    g.append(label, bar, value);
    svg.append(g);
  });
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function listOrders(orders) {
  const body = document.getElementById("orders");
  body.replaceChildren(...orders.map((o) => {
    const tr = document.createElement("tr");
    tr.dataset.orderId = String(o.id);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Cancel";
    button.dataset.cancel = String(o.id);
    button.addEventListener("click", () => cancel(o.id, button));
    const action = document.createElement("td");
    action.append(button);
    tr.append(cell(`#${o.id}`), cell(o.customer), cell(money(o.total), "num"), cell(String(o.created_at).slice(0, 10)), action);
    return tr;
  }));
}

async function call(name, args = {}) {
  const result = await app.callServerTool({ name, arguments: args });
  if (result.isError) throw new Error(textOf(result) || `${name} failed`);
  return result;
}

async function refresh() {
  const [totals, open] = await Promise.all([call("customer_totals"), call("open_order_list")]);
  drawChart(totals.structuredContent.customers);
  listOrders(open.structuredContent.orders);
}

async function cancel(id, button) {
  button.disabled = true;
  setStatus(`Cancelling order ${id}…`);
  try {
    const result = await call("cancel_order", { id });
    await refresh();
    setStatus(textOf(result));
  } catch (err) {
    button.disabled = false;
    setStatus(err.message, true);
  }
}

app.ontoolresult = async (result) => {
  if (result.isError || !result.structuredContent) {
    setStatus(textOf(result) || "The tool failed.", true);
    return;
  }
  drawChart(result.structuredContent.customers);
  try {
    listOrders((await call("open_order_list")).structuredContent.orders);
    setStatus("Ready.");
  } catch (err) {
    setStatus(err.message, true);
  }
};

await app.connect();
