// The report page's only script: the filters and keyboard navigation. It reads nothing from the run and
// fetches nothing; without it (or in print) every node is shown.
(function () {
  "use strict";
  var main = document.getElementById("report");
  var status = document.getElementById("filter-status");
  var buttons = Array.prototype.slice.call(document.querySelectorAll("[data-filter-button]"));
  var chunks = Array.prototype.slice.call(document.querySelectorAll("#paper .node"));

  var finders = ["find-text", "find-kind", "find-verdict", "find-check"].map(function (id) {
    return document.getElementById(id);
  });

  // Search and the three selects hide what does not match (the buttons' filters apply on top, by CSS).
  function find() {
    var words = finders[0].value.trim().toLowerCase();
    var kind = finders[1].value;
    var verdict = finders[2].value;
    var check = finders[3].value;
    chunks.forEach(function (chunk) {
      var text = (chunk.id.replace(/^node-/, "") + " " + chunk.textContent).toLowerCase();
      var types = (chunk.getAttribute("data-check-types") || "").split(" ");
      var match =
        (!words || text.indexOf(words) >= 0) &&
        (!kind || chunk.getAttribute("data-kind") === kind) &&
        (!verdict || chunk.getAttribute("data-verdict") === verdict) &&
        (!check || types.indexOf(check) >= 0);
      chunk.hidden = !match;
    });
    setFilter(main.getAttribute("data-filter") || "");
  }

  function shown(element) {
    return element.getClientRects().length > 0;
  }

  function setFilter(name) {
    main.setAttribute("data-filter", name);
    buttons.forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-filter-button") === name));
    });
    var count = chunks.filter(shown).length;
    status.textContent =
      count === chunks.length
        ? "Showing all " + chunks.length + " chunks."
        : "Showing " + count + " of " + chunks.length + " chunks" + (name ? " (only " + name + ")." : ".");
  }

  function toggle(name) {
    setFilter(main.getAttribute("data-filter") === name ? "" : name);
  }

  function move(step) {
    var nodes = Array.prototype.slice.call(document.querySelectorAll("#paper .node[data-assessed]")).filter(shown);
    if (nodes.length === 0) {
      return;
    }
    var current = nodes.indexOf(document.activeElement);
    var next = current < 0 ? (step > 0 ? 0 : nodes.length - 1) : (current + step + nodes.length) % nodes.length;
    nodes[next].focus();
    nodes[next].scrollIntoView({ block: "center" });
  }

  buttons.forEach(function (button) {
    button.addEventListener("click", function () {
      setFilter(button.getAttribute("data-filter-button"));
    });
  });

  finders.forEach(function (finder) {
    finder.addEventListener("input", find);
    finder.addEventListener("change", find);
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    if (event.key === "j") {
      move(1);
    } else if (event.key === "k") {
      move(-1);
    } else if (event.key === "f") {
      toggle("fails");
    } else if (event.key === "a") {
      toggle("assumptions");
    } else if (event.key === "Escape") {
      finders.forEach(function (finder) {
        finder.value = "";
      });
      find();
      setFilter("");
    } else {
      return;
    }
    event.preventDefault();
  });

  setFilter("");
})();
