"""Every function of include/animrt.h is either recorded by a trace (it has
a replay entry in Sources/animrt/Trace/Replay.swift, or is recorded as one)
or listed in docs/traces.md as not recorded; and the docs list the recorded
ones too. Prints what is missing and fails."""
import re
import sys

header = open("include/animrt.h", encoding="utf-8").read()
body = re.sub(r"/\*.*?\*/", "", header, flags=re.S)
body = re.sub(r"typedef\s+void\s*\(\*animrt_event_fn\)\([^)]*\);", "", body)
declared = set(re.findall(r"\b(animrt_\w+)\s*\([^)]*\)\s*;", body))
replayed = set(re.findall(r'^\s*"(animrt_\w+)":', open("Sources/animrt/Trace/Replay.swift", encoding="utf-8").read(), re.M))
recorded_as_another = {"animrt_definition_load_file"}
docs = open("docs/traces.md", encoding="utf-8").read()
recorded_part, _, unrecorded_part = docs.partition("These are not, because")
in_docs_recorded = set(re.findall(r"`(animrt_\w+)`", recorded_part.split("These calls are recorded:")[1]))
in_docs_unrecorded = set(re.findall(r"`(animrt_\w+)`", unrecorded_part.split("`make test` fails")[0]))
problems = []
for name in sorted(declared):
    recorded = name in replayed or name in recorded_as_another
    if recorded and name not in in_docs_recorded:
        problems.append(f"{name} is recorded but docs/traces.md does not list it as recorded")
    if not recorded and name not in in_docs_unrecorded:
        problems.append(f"{name} is not recorded by a trace and docs/traces.md does not say so")
    if recorded and name in in_docs_unrecorded:
        problems.append(f"{name} is recorded but docs/traces.md lists it as not recorded")
for name in sorted((replayed | in_docs_recorded | in_docs_unrecorded) - declared):
    problems.append(f"{name} is not a function of the header")
for p in problems:
    print(p)
print(f"traces: {len(declared)} functions, {len(replayed) + len(recorded_as_another)} recorded, "
      f"{len(declared - replayed - recorded_as_another)} not")
print("1 passed, 0 failed" if not problems else f"0 passed, {len(problems)} failed")
sys.exit(1 if problems else 0)
