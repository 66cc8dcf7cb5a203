// A bug stops the app's WebAssembly with a trap (the release build compiles a panic to one:
// scripts/build.sh). Say so, once, rather than leave a page that no longer answers.
const crashed = (error) => {
  if (!(error instanceof WebAssembly.RuntimeError) || document.querySelector(".crashed")) return;
  const panel = document.createElement("div");
  panel.className = "error-panel crashed";
  panel.setAttribute("role", "alert");
  panel.innerHTML = "<h1>Something went wrong</h1><p>The simulation stopped because of a bug. Reloading starts the scenario again.</p><button>Reload the playground</button>";
  panel.querySelector("button").onclick = () => location.reload();
  document.body.append(panel);
};
addEventListener("error", (e) => crashed(e.error));
addEventListener("unhandledrejection", (e) => crashed(e.reason));
