"""One self-contained replay page: every step's picture and printout, a slider, no network."""

from __future__ import annotations

from collections.abc import Sequence

from automa.engine.judge import GeometryMode
from automa.render.markup import esc, script_json
from automa.render.measured import START, unmeasured_steps
from automa.render.replay_out import step_lines
from automa.render.svg import picture
from automa.session.replay import ReplayStep
from automa.session.store import Session

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{title}</title>
<style>
 body {{ font-family: sans-serif; margin: 1em; background: #fff; color: #111; }}
 main {{ display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }}
 #mat svg {{ max-height: 90vh; width: auto; height: auto; border: 1px solid #ccc; }}
 pre {{ font-size: 13px; max-width: 110ch; white-space: pre-wrap; }}
 .controls {{ margin-bottom: 1em; }}
 input[type=range] {{ width: 40em; max-width: 90vw; }}
</style></head>
<body>
<h1>{title}</h1>
<div class="controls">
 <button id="prev" aria-label="previous step">&#9664;</button>
 <input id="step" type="range" min="0" max="{last}" value="0" aria-label="step">
 <button id="next" aria-label="next step">&#9654;</button>
 <span id="label"></span>
</div>
<main><div id="mat"></div><pre id="text"></pre></main>
<script id="steps" type="application/json">{steps}</script>
<script>
 const steps = JSON.parse(document.getElementById("steps").textContent);
 const slider = document.getElementById("step");
 function show(i) {{
   slider.value = i;
   document.getElementById("mat").innerHTML = steps[i].svg;
   document.getElementById("text").textContent = steps[i].text;
   document.getElementById("label").textContent = steps[i].label;
 }}
 slider.addEventListener("input", () => show(Number(slider.value)));
 document.getElementById("prev").onclick = () => show(Math.max(0, Number(slider.value) - 1));
 document.getElementById("next").onclick = () =>
   show(Math.min(steps.length - 1, Number(slider.value) + 1));
 document.addEventListener("keydown", e => {{
   if (e.key === "ArrowRight") document.getElementById("next").click();
   if (e.key === "ArrowLeft") document.getElementById("prev").click();
 }});
 show(0);
</script>
</body></html>
"""


def replay_page(session: Session, steps: Sequence[ReplayStep]) -> str:
    scenario = session.state.scenario
    components = session.catalog.components
    asked = session.geometry_mode == GeometryMode.ASKED
    unmeasured = unmeasured_steps(steps) if asked else [None] * len(steps)
    frames = [{"label": "the start", "text": "The table before the first input.",
               "svg": picture(scenario, scenario.pieces, "the start", components=components,
                              unmeasured=START if asked else None)}]
    for step, hidden in zip(steps, unmeasured, strict=True):
        text = "\n".join(step_lines(step, not asked))
        svg = picture(scenario, step.after.battle.pieces, f"after input {step.number}",
                      step.activation, step.before.battle.pieces, components, hidden)
        frames.append({"label": f"input {step.number} of {len(steps)} · round "
                                f"{step.before.round}", "text": text, "svg": svg})
    return PAGE.format(title=esc(f"Replay of {session.folder.name}"), last=len(frames) - 1,
                       steps=script_json(frames))
