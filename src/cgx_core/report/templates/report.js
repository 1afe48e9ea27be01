// The report page's only script: the filters and keyboard navigation. It reads nothing from the run and
// fetches nothing; without it (or in print) every node is shown.
(function () {
  "use strict";
  var main = document.getElementById("report");
  var status = document.getElementById("filter-status");
  var buttons = Array.prototype.slice.call(document.querySelectorAll("[data-filter-button]"));
  var chunks = Array.prototype.slice.call(document.querySelectorAll("#paper .node"));

  function shown(element) {
    return element.getClientRects().length > 0;
  }

  function setFilter(name) {
    main.setAttribute("data-filter", name);
    buttons.forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-filter-button") === name));
    });
    var count = chunks.filter(shown).length;
    status.textContent = name
      ? "Showing " + count + " of " + chunks.length + " chunks (only " + name + ")."
      : "Showing all " + chunks.length + " chunks.";
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
      setFilter("");
    } else {
      return;
    }
    event.preventDefault();
  });

  setFilter("");
})();
