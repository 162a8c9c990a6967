// golfscan review page: plain JS, no build step. The server does all the work; this only shows it.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null;   // the open photo's state, as /api/photo returns it
let selected = null;  // the JSON place of the read being corrected

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

const q = (params) => new URLSearchParams(params).toString();

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick") node.addEventListener("click", value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function loadPhotos() {
  const data = await api("/api/photos");
  $("root").textContent = data.root;
  $("rescore-folder").hidden = !data.folder;
  const nav = $("photos");
  nav.replaceChildren(...data.photos.map((p) => el("button", {
    type: "button", "data-photo": p.photo, class: current && current.photo === p.photo ? "current" : "",
    onclick: () => openPhoto(p.photo),
  }, p.photo, el("span", {class: "count"}, p.flagged === null ? "" : String(p.flagged)))));
  for (const problem of data.problems) nav.append(el("p", {class: "error"}, `${problem.file}: ${problem.reason}`));
  const wanted = new URLSearchParams(location.hash.slice(1)).get("photo");
  const first = wanted || (data.photos.length === 1 ? data.photos[0].photo : null);
  if (first) await openPhoto(first);
}

async function openPhoto(photo) {
  $("message").textContent = `Scanning ${photo} ...`;
  try {
    current = await api(`/api/photo?${q({photo})}`);
  } catch (error) {
    $("message").textContent = error.message;
    $("message").className = "error";
    return;
  }
  history.replaceState(null, "", `#${q({photo})}`);
  $("message").textContent = "";
  $("photo").src = `/api/image?${q({photo})}`;
  $("overlay").src = `/api/overlay?${q({photo})}`;
  $("stage").hidden = false;
  for (const button of $("photos").querySelectorAll("button")) {
    button.classList.toggle("current", button.dataset.photo === photo);
  }
  selected = null;
  $("picker").hidden = true;
  render();
}

function render() {
  renderOutlines();
  renderScore();
  renderReads();
  const count = $("photos").querySelector(`button[data-photo="${CSS.escape(current.photo)}"] .count`);
  if (count) count.textContent = String(current.flagged);
}

function readClass(read) {
  return [read.flagged ? "flagged" : "", read.corrected ? "corrected" : "", read.where === selected ? "selected" : ""]
    .filter(Boolean).join(" ");
}

function renderOutlines() {
  const svg = $("outlines");
  const [width, height] = current.size;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.replaceChildren();
  for (const read of current.reads) {
    if (!read.polygon) continue;
    const polygon = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
    polygon.setAttribute("points", read.polygon.map((p) => p.join(",")).join(" "));
    polygon.setAttribute("class", readClass(read));
    polygon.dataset.where = read.where;
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = `${read.where}: ${read.label} (${read.confidence.toFixed(2)})`;
    polygon.append(title);
    polygon.addEventListener("click", () => pick(read.where));
    svg.append(polygon);
  }
}

function renderScore() {
  const box = $("score");
  box.replaceChildren(el("h2", {}, `${current.title}: ${current.photo}`));
  if (!current.result) {
    box.append(el("p", {class: "error", "data-test": "score-error"}, current.error));
    return;
  }
  for (const player of current.result.scores) {
    const table = el("table", {"data-player": player.player});
    table.append(el("caption", {}, player.player));
    for (const line of player.lines) {
      table.append(el("tr", {}, el("td", {}, line.item), el("td", {class: "points"}, String(line.points)),
        el("td", {}, line.why)));
    }
    table.append(el("tr", {class: "total"}, el("td", {}, "TOTAL"),
      el("td", {class: "total", "data-test": "total"}, String(player.total)), el("td")));
    box.append(table);
    for (const warning of player.warnings) box.append(el("p", {class: "warning"}, warning));
  }
  for (const warning of [...current.result.warnings, ...current.warnings]) {
    box.append(el("p", {class: "warning"}, warning));
  }
}

function renderReads() {
  const list = $("read-list");
  const onlyFlagged = $("only-flagged").checked;
  list.replaceChildren(...current.reads.filter((r) => !onlyFlagged || r.flagged || r.corrected).map((read) =>
    el("li", {class: readClass(read), "data-where": read.where, onclick: () => pick(read.where)},
      `${read.where}: ${read.label} (${read.confidence.toFixed(2)})${read.corrected ? " - corrected" : ""}`)));
  $("outlines").classList.toggle("only-flagged", onlyFlagged);
}

async function pick(where) {
  selected = where;
  const read = current.reads.find((r) => r.where === where);
  $("picker").hidden = false;
  $("picker-where").textContent = where;
  $("picker-current").textContent = read.label;
  $("picker-confidence").textContent = `(confidence ${read.confidence.toFixed(2)})`;
  $("picker-error").textContent = "";
  $("undo").hidden = !read.corrected;
  $("custom").value = JSON.stringify(read.value);
  $("crop").hidden = !read.polygon;
  if (read.polygon) $("crop").src = `/api/crop?${q({photo: current.photo, where})}`;
  renderOutlines();
  renderReads();
  const choices = await api(`/api/choices?${q({photo: current.photo, where})}`);
  const box = $("choices");
  box.replaceChildren();
  let group = null;
  for (const choice of choices) {
    if (choice.group !== group) {
      group = choice.group;
      box.append(el("h3", {}, group || "values"));
    }
    const same = JSON.stringify(choice.value) === JSON.stringify(read.value);
    box.append(el("button", {type: "button", class: `choice${same ? " current" : ""}`, "data-label": choice.label,
      onclick: () => correct(where, choice.value)}, choice.label));
  }
  filterChoices();
}

function filterChoices() {
  const text = $("filter").value.toLowerCase();
  for (const button of $("choices").querySelectorAll("button")) {
    button.hidden = Boolean(text) && !button.dataset.label.toLowerCase().includes(text);
  }
}

async function correct(where, value) {
  try {
    current = await api("/api/correct", {photo: current.photo, where, value});
  } catch (error) {
    $("picker-error").textContent = error.message;
    return;
  }
  render();
  await pick(where);
}

$("apply-custom").addEventListener("click", () => {
  let value;
  try {
    value = JSON.parse($("custom").value);
  } catch (error) {
    $("picker-error").textContent = `not JSON: ${error.message}`;
    return;
  }
  correct(selected, value);
});
$("undo").addEventListener("click", async () => {
  current = await api("/api/uncorrect", {photo: current.photo, where: selected});
  render();
  await pick(selected);
});
$("rescore-folder").addEventListener("click", async () => {
  const box = $("folder-summary");
  box.hidden = false;
  box.textContent = "Rescoring the folder (only corrected or new photos are scanned) ...";
  try {
    box.textContent = (await api("/api/rescore-folder", {})).summary;
  } catch (error) {
    box.textContent = error.message;
  }
});
$("filter").addEventListener("input", filterChoices);
$("show-overlay").addEventListener("change", (event) => { $("overlay").hidden = !event.target.checked; });
$("only-flagged").addEventListener("change", () => { if (current) { renderOutlines(); renderReads(); } });

loadPhotos().catch((error) => { $("message").textContent = error.message; });
