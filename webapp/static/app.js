// flipgames web app: the little JavaScript the pages use. Everything works
// without it through plain forms; with it, clicking a board cell submits its
// move, selects submit their form, pages poll while someone else moves, and
// the Player Factory redraws its board and enables/disables its controls.
"use strict";

function onReady(fn) {
  if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
}

onReady(function () {
  // Selects marked data-autosubmit submit their form when changed.
  document.querySelectorAll("select[data-autosubmit]").forEach(function (s) {
    s.addEventListener("change", function () { s.form.submit(); });
  });

  // Game page: a click (or Enter) on a legal cell sends its action. With
  // shapes, the shape picker decides which of a cell's placements that is
  // (data-shape-actions "circle:3 star:40", webapp/boards.py).
  var form = document.getElementById("move-form");
  if (form) {
    document.querySelectorAll("#shape-picker input[name='shape']").forEach(function (radio) {
      radio.addEventListener("change", function () {
        document.querySelectorAll(".cell[data-shape-actions]").forEach(function (cell) {
          var action = null;
          cell.dataset.shapeActions.split(" ").forEach(function (pair) {
            var kv = pair.split(":");
            if (kv[0] === radio.value) action = kv[1];
          });
          if (action === null) { delete cell.dataset.action; cell.classList.remove("legal"); }
          else { cell.dataset.action = action; cell.classList.add("legal"); }
        });
      });
    });
    document.querySelectorAll(".cell").forEach(function (cell) {
      function send() {
        if (form.dataset.sent || !cell.classList.contains("legal")) return;
        form.dataset.sent = "1";
        document.getElementById("action").value = cell.dataset.action;
        form.submit();
      }
      cell.addEventListener("click", send);
      cell.addEventListener("keydown", function (e) { if (e.key === "Enter") send(); });
    });
  }
  var game = document.getElementById("game");
  // A move is answered with the game page itself (webapp/views_play.py):
  // show the game's own address, so a reload asks for the page, not the move.
  if (game && location.pathname !== game.dataset.url && window.history.replaceState) {
    window.history.replaceState(null, "", game.dataset.url);
  }
  // The status poll's "moves" is the seat's own mark of the position (a count
  // of decisions, or with hidden information a digest of what the seat knows):
  // the page reloads when the seat has something new to see, never because of
  // a turn it cannot see.
  if (game && game.dataset.over === "0" && game.dataset.mine === "0") {
    setInterval(function () {
      fetch(game.dataset.status, {headers: {Accept: "application/json"}})
        .then(function (r) { return r.json(); })
        .then(function (s) {
          if (String(s.moves) !== game.dataset.moves || s.over || s.your_turn) location.reload();
        });
    }, 1500);
  }

  // Seconds per turn: count down the time the server gave (data-remaining,
  // from its own clock, so the browser's clock does not matter) and reload
  // when it runs out; the server plays the random move (webapp/live.py).
  var clock = document.getElementById("clock");
  if (clock) {
    var end = Date.now() + 1000 * parseFloat(clock.dataset.remaining);
    var left = document.getElementById("clock-left");
    var tick = setInterval(function () {
      var s = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      left.textContent = s;
      if (s <= 10) clock.classList.add("urgent");
      if (Date.now() >= end + 250) { clearInterval(tick); location.replace(game.dataset.url); }
    }, 250);
  }

  // Benchmark page: progress until the run ends.
  var bench = document.getElementById("bench");
  if (bench && bench.dataset.finished !== "1") {
    var timer = setInterval(function () {
      fetch(bench.dataset.status, {headers: {Accept: "application/json"}})
        .then(function (r) { return r.json(); })
        .then(function (s) {
          var bar = document.getElementById("bench-progress");
          bar.value = s.done;
          if (s.total) bar.max = s.total;
          document.getElementById("bench-count").textContent =
            s.done + (s.total ? " / " + s.total : "") + " games";
          if (s.finished) {
            // the server draws the finished run: its result and each player's games
            clearInterval(timer);
            window.location.reload();
          }
        });
    }, 1000);
  }

  if (window.factorySetup) window.factorySetup();
});
