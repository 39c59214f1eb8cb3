// Player Factory: redraw on changes that reshape the form, the board preview
// (row, plane or stacked layers; stacks show two rows above the tallest stack
// and the maximum height), markers toggled onto spaces, power-dependent
// selects, and the phase selector. Read-only on a saved rule set's page.
"use strict";

window.factorySetup = function () {
  var form = document.getElementById("factory");
  var preview = document.getElementById("preview");
  if (!preview) return;
  var readOnly = !form;
  var NS = "http://www.w3.org/2000/svg";
  var FILL = {black: "#222", white: "#fafafa", pink: "#f4a6c8", yellow: "#f2d43a"};
  // unit outlines of the six shapes (webapp/shapes.py; null: a circle)
  var OUTLINES = JSON.parse(preview.dataset.shapes || "{}");
  var selected = null;
  var phase = 0;

  if (form) {
    form.querySelectorAll("[data-redraw]").forEach(function (el) {
      el.addEventListener("change", function () {
        var op = document.createElement("input");
        op.type = "hidden"; op.name = "op"; op.value = "redraw";
        form.appendChild(op);
        form.submit();
      });
    });
    form.querySelectorAll("select[name$='.power']").forEach(function (power) {
      var fieldset = power.closest("fieldset");
      var condition = fieldset.querySelector("select[name$='.condition']");
      var result = fieldset.querySelector("select[name$='.result']");
      var kind = form.querySelector("select[name='board.kind']");
      function sync() {
        var none = power.value === "none";
        fieldset.querySelectorAll(".power-dependent").forEach(function (dep) {
          if (none) dep.value = "";
          dep.disabled = none;
        });
        // The specification: "If a “Cover” condition is selected on non-stacks, then clear
        // all results except Remove and Reincarnate".
        if (condition && result) {
          var cover = /^cover/.test(condition.value) && kind && kind.value !== "stacks";
          ["converts", "paralyzes"].forEach(function (value) {
            var option = result.querySelector("option[value='" + value + "']");
            if (option) {
              if (cover && result.value === value) result.value = "";
              option.disabled = cover;
            }
          });
        }
      }
      power.addEventListener("change", sync);
      if (condition) condition.addEventListener("change", sync);
      sync();
    });
    // The specification: when every reserve select of a shape is at its maximum, that
    // shape's move dropdown is cleared and disabled (nothing is left to move).
    form.querySelectorAll("fieldset.shape").forEach(function (fs) {
      var move = fs.querySelector("select[name$='.move']");
      var reserves = fs.querySelectorAll(".reserves select");
      function sync() {
        var full = reserves.length > 0 && Array.prototype.every.call(reserves, function (r) {
          return r.selectedIndex === r.options.length - 1;
        });
        if (full) move.value = "stationary";    // the schema's "no move"
        move.disabled = full;
      }
      reserves.forEach(function (r) { r.addEventListener("change", sync); });
      sync();
    });
    document.querySelectorAll(".marker").forEach(function (m) {
      m.addEventListener("click", function () {
        document.querySelectorAll(".marker").forEach(function (o) { o.classList.remove("selected"); });
        if (selected === m.dataset.marker) { selected = null; return; }
        selected = m.dataset.marker;
        m.classList.add("selected");
      });
    });
  }
  var phaseSelect = document.getElementById("phase-select");
  function showPhase() {
    phase = phaseSelect ? parseInt(phaseSelect.value, 10) : 0;
    document.querySelectorAll(".phase").forEach(function (p) {
      p.style.display = parseInt(p.dataset.phase, 10) === phase ? "" : "none";
    });
    draw();
  }
  if (phaseSelect) phaseSelect.addEventListener("change", showPhase);

  function list(input) {
    return input && input.value ? input.value.split(";").filter(Boolean) : [];
  }
  function setList(input, items) { input.value = items.join(";"); }
  function phaseInput(cls) { return document.querySelectorAll("." + (cls || "phase-locked"))[phase]; }
  // With several boards, the whole game's markers go to every board or to the
  // board chosen in #marker-board (its own "board.on_boards[i].KEY" inputs).
  var boardSelect = document.getElementById("marker-board");
  function onBoard(key) {
    var b = boardSelect ? boardSelect.value : "";
    return b ? document.querySelector("input.on-board-" + key.replace(/_/g, "-") + "[data-board='" + b + "']") : null;
  }
  function boardInput(key) { return onBoard(key) || document.getElementById("board-" + key.replace(/_/g, "-")); }
  if (boardSelect) boardSelect.addEventListener("change", function () { draw(); });
  // Where each marker is kept: a list of spaces "x,y,z;..." or, for the seat
  // markers, spaces with their seats "x,y,z@1,2;..." (webapp/factory_form.py).
  var SPACE_LISTS = {"locked": function () { return boardInput("locked"); },
                     "sticky": function () { return boardInput("sticky"); },
                     "dealt": function () { return document.getElementById("board-dealt"); },
                     "phase-locked": function () { return phaseInput("phase-locked"); },
                     "phase-cloaked": function () { return phaseInput("phase-cloaked"); }};
  var SEAT_LISTS = {"exclusive": function () { return boardInput("exclusive"); },
                    "entry_locked": function () { return boardInput("entry_locked"); },
                    "exit_locked": function () { return boardInput("exit_locked"); },
                    "phase-entry_locked": function () { return phaseInput("phase-entry-locked"); },
                    "phase-exit_locked": function () { return phaseInput("phase-exit-locked"); }};
  function seatsAt(input) {          // {"x,y,z": ["1", "2"]}
    var out = {};
    list(input).forEach(function (item) {
      var parts = item.split("@");
      out[parts[0]] = parts[1] ? parts[1].split(",") : [];
    });
    return out;
  }

  function toggle(key) {
    if (!selected || readOnly) return;
    if (SPACE_LISTS[selected]) {
      var input = SPACE_LISTS[selected]();
      var items = list(input);
      var i = items.indexOf(key);
      if (i >= 0) items.splice(i, 1); else items.push(key);
      setList(input, items);
    } else if (SEAT_LISTS[selected]) {
      var seatInput = SEAT_LISTS[selected]();
      var seat = document.getElementById("marker-seat").value;
      var at = seatsAt(seatInput);
      var seats = at[key] || [];
      var k = seats.indexOf(seat);
      if (k >= 0) seats.splice(k, 1); else seats.push(seat);
      if (seats.length) at[key] = seats; else delete at[key];
      setList(seatInput, Object.keys(at).map(function (c) { return c + "@" + at[c].join(","); }));
    } else {
      // "piece:COLOUR:SHAPE"; kept as "x,y,z:colour" for a circle and
      // "x,y,z:colour:shape" otherwise (webapp/factory_form.py)
      var parts = selected.split(":"), colour = parts[1], shape = parts[2] || "circle";
      var pieces = document.getElementById("board-pieces");
      var all = list(pieces);
      var mine = key + ":" + colour + (shape === "circle" ? "" : ":" + shape);
      var j = all.indexOf(mine);
      if (j >= 0) all.splice(j, 1);
      else all = all.filter(function (p) { return p.split(":")[0] !== key; }).concat([mine]);
      setList(pieces, all);
    }
    draw();
  }

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { if (attrs[k] !== null) e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }

  function draw() {
    var size = JSON.parse(preview.dataset.size), kind = preview.dataset.kind;
    var X = size[0], Y = size[1], Z = size[2], C = 30, pad = 22, gap = 26;
    // the board chosen in #marker-board shows its own markers with the common ones
    var locked = list(document.getElementById("board-locked")).concat(list(onBoard("locked")));
    var plocked = list(phaseInput());
    var sticky = list(document.getElementById("board-sticky")).concat(list(onBoard("sticky")));
    var dealt = list(document.getElementById("board-dealt"));    // dealt common: a piece of the deck face up
    var cloaked = list(phaseInput("phase-cloaked"));
    // per space, the short labels of its seat markers: E1 exclusive to seat 1,
    // in2 / out2 entry / exit locked for seat 2 (whole game or this phase)
    var notes = {};
    [["exclusive", "E"], ["entry_locked", "in"], ["exit_locked", "out"],
     ["phase-entry_locked", "in"], ["phase-exit_locked", "out"]].forEach(function (pair) {
      var inputs = [SEAT_LISTS[pair[0]]()];
      if (pair[0].indexOf("phase-") !== 0 && onBoard(pair[0])) inputs.push(document.getElementById("board-" + pair[0].replace(/_/g, "-")));
      inputs.forEach(function (input) {
        if (!input) return;
        var at = seatsAt(input);
        Object.keys(at).forEach(function (c) {
          (notes[c] = notes[c] || []).push(pair[1] + at[c].join(","));
        });
      });
    });
    var pieces = {};
    list(document.getElementById("board-pieces")).forEach(function (p) {
      var parts = p.split(":"); pieces[parts[0]] = {colour: parts[1], shape: parts[2] || "circle"};
    });
    var svg, panels, rows, cols;
    preview.innerHTML = "";
    if (kind === "stacks") {
      // posts (x, y), height z; only two rows above the tallest stack are shown
      var tallest = 0;
      Object.keys(pieces).forEach(function (k) { tallest = Math.max(tallest, parseInt(k.split(",")[2], 10)); });
      var shown = Math.min(Z, tallest + 2);
      svg = el("svg", {width: 2 * pad + Y * X * C + (Y - 1) * gap, height: 2 * pad + shown * C, class: "board"}, preview);
      el("text", {x: 2, y: 13, class: "maxheight"}, svg).textContent = "max height " + Z;
      for (var py = 1; py <= Y; py++) for (var px = 1; px <= X; px++) for (var pz = 1; pz <= shown; pz++) {
        space(svg, pad + (py - 1) * (X * C + gap) + (px - 1) * C, pad + (shown - pz) * C, [px, py, pz]);
      }
      return;
    }
    if (kind === "tetrakis") {
      // tetrakis squares: each square (x, y) cut by its diagonals into triangles
      // t = 1 N (top), 2 E, 3 S, 4 W; z is the triangle
      svg = el("svg", {width: 2 * pad + X * C, height: 2 * pad + Y * C, class: "board"}, preview);
      goals(svg, pad, pad, X * C, Y * C, Y === 1);
      for (var tx = 1; tx <= X; tx++) for (var ty = 1; ty <= Y; ty++) for (var tt = 1; tt <= 4; tt++) {
        space(svg, pad + (tx - 1) * C, pad + (Y - ty) * C, [tx, ty, tt]);
      }
      return;
    }
    // a row (two dimensions 1), a plane (one), or layers z = 1..Z side by side (3D)
    var layers = Z;
    // hexagons: each row half a hexagon right of the row below (the rhombus of Hex)
    var shift = kind === "hexagons" ? C / 2 : 0;
    svg = el("svg", {width: 2 * pad + layers * X * C + (layers - 1) * gap + (Y - 1) * shift, height: 2 * pad + Y * C, class: "board"}, preview);
    for (var z = 1; z <= Z; z++) {
      var ox = pad + (z - 1) * (X * C + gap);
      if (Z > 1) el("text", {x: ox, y: pad - 5}, svg).textContent = "z=" + z;
      goals(svg, ox, pad, X * C, Y * C, Y === 1);
      for (var x = 1; x <= X; x++) for (var y = 1; y <= Y; y++) {
        space(svg, ox + (x - 1) * C + (y - 1) * shift, pad + (Y - y) * C, [x, y, z]);
      }
    }

    // The specification: Player 1's goal is at y = max (x = 1 when the board is one row);
    // Player 2's is opposite in two-player games, else the goals go round the
    // board counter-clockwise (Player 2 at x = 1).
    function goals(svg, ox, oy, w, h, row) {
      var seats = {"2": 2, "3": 3, "4": 4, "partners": 4, "2-vs-chaos": 2, "3-vs-chaos": 3}[preview.dataset.players] || 0;
      var top = {x: ox, y: oy - 4, w: w, h: 3}, left = {x: ox - 4, y: oy, w: 3, h: h},
          bottom = {x: ox, y: oy + h + 1, w: w, h: 3}, right = {x: ox + w + 1, y: oy, w: 3, h: h};
      var order = row ? (seats === 2 ? [left, right] : [left, bottom, right, top])
                      : (seats === 2 ? [top, bottom] : [top, left, bottom, right]);
      var colours = ["#222", "#bbb", "#e07aa8", "#d4b21a"];
      for (var i = 0; i < seats && i < order.length; i++) {
        var g = el("g", {class: "goal"}, svg);
        el("rect", {x: order[i].x, y: order[i].y, width: order[i].w, height: order[i].h, fill: colours[i]}, g);
        el("title", {}, g).textContent = "Player " + (i + 1) + " goal";
      }
    }

    // a starting piece in its shape and colour, as the game page draws it
    function piece(g, p, cx, cy, r) {
      var attrs = {fill: FILL[p.colour] || "#888", stroke: "#000", "stroke-width": 1.5,
                   "stroke-linejoin": "round", class: "piece " + p.colour + " shape-" + p.shape};
      var outline = OUTLINES[p.shape];
      if (!outline) {
        attrs.cx = cx; attrs.cy = cy; attrs.r = r;
        return el("circle", attrs, g);
      }
      attrs.points = outline.map(function (xy) {
        return (cx + r * xy[0]).toFixed(1) + "," + (cy + r * xy[1]).toFixed(1);
      }).join(" ");
      return el("polygon", attrs, g);
    }

    // a hexagon filling the C by C square at (sx, sy) (unused by the other kinds' rectangles)
    function hexPoints(sx, sy) {
      if (kind !== "hexagons") return null;
      var pts = [];
      for (var k = 0; k < 6; k++) {
        var a = Math.PI / 180 * (60 * k + 30);
        pts.push((sx + C / 2 + C / 2 * Math.cos(a)).toFixed(1) + "," + (sy + C / 2 + C / 2 * Math.sin(a)).toFixed(1));
      }
      return pts.join(" ");
    }

    // tetrakis: triangle t of the C by C square at (sx, sy), and its centroid
    function triangle(sx, sy, t) {
      var corners = [[sx, sy], [sx + C, sy], [sx + C, sy + C], [sx, sy + C]];
      var a = corners[t - 1], b = corners[t % 4], m = [sx + C / 2, sy + C / 2];
      return {points: [a, b, m].map(function (q) { return q[0].toFixed(1) + "," + q[1].toFixed(1); }).join(" "),
              cx: (a[0] + b[0] + m[0]) / 3, cy: (a[1] + b[1] + m[1]) / 3};
    }

    function space(svg, sx, sy, at) {
      var key = at.join(",");
      var g = el("g", {class: "space", "data-at": key}, svg);
      var isLocked = locked.indexOf(key) >= 0, isPhase = plocked.indexOf(key) >= 0;
      var isSticky = sticky.indexOf(key) >= 0, isCloaked = cloaked.indexOf(key) >= 0;
      var tri = kind === "tetrakis" ? triangle(sx, sy, at[2]) : null;
      el(kind === "hexagons" || tri ? "polygon" : "rect", {x: sx, y: sy, width: C, height: C, points: tri ? tri.points : hexPoints(sx, sy), fill: isLocked ? "#999" : isPhase ? "#c9b8e8" : isCloaked ? "#7a8799" : (kind === "stacks" ? "#dfe6f5" : "#e8dcc0"),
                  stroke: isSticky ? "#c0392b" : "#555", "stroke-width": isSticky ? 3 : 1,
                  class: (isSticky ? "sticky " : "") + (isCloaked ? "cloaked" : "")}, g);
      if (pieces[key]) piece(g, pieces[key], tri ? tri.cx : sx + C / 2, tri ? tri.cy : sy + C / 2, tri ? C * 0.14 : C * 0.36);
      if (dealt.indexOf(key) >= 0) el("text", {x: sx + C / 2 - 4, y: sy + C / 2 + 4, "font-size": 11, class: "dealt-note"}, g).textContent = "D";
      if (notes[key]) el("text", {x: sx + 2, y: sy + C - 3, "font-size": 8, class: "seat-note"}, g).textContent = notes[key].join(" ");
      el("title", {}, g).textContent = "(" + key + ")" + (pieces[key] ? " " + pieces[key].colour + " " + pieces[key].shape : "") + (isLocked ? " locked" : "") + (isPhase ? " locked this phase" : "") +
        (isSticky ? " sticky" : "") + (dealt.indexOf(key) >= 0 ? " dealt common" : "") + (isCloaked ? " cloaked this phase" : "") + (notes[key] ? " " + notes[key].join(" ") : "");
      g.addEventListener("click", function () { toggle(key); });
    }
  }
  showPhase();
};
