"""The SARIF 2.1.0 properties that the schema requires, and the ones GitHub code scanning reads,
checked on a report: a list of problems, empty when the report is acceptable."""

LEVELS = {"none", "note", "warning", "error"}


def _region_problems(region, where):
    problems = []
    start = region.get("startLine")
    if not isinstance(start, int) or start < 1:
        problems.append(f"{where}: region.startLine must be an integer >= 1")
    for key in ("startColumn", "endColumn", "endLine"):
        if key in region and (not isinstance(region[key], int) or region[key] < 1):
            problems.append(f"{where}: region.{key} must be an integer >= 1")
    if isinstance(start, int) and isinstance(region.get("endLine"), int) and region["endLine"] < start:
        problems.append(f"{where}: region ends before it starts")
    return problems


def _physical_location_problems(location, where):
    problems = []
    uri = location.get("artifactLocation", {}).get("uri")
    if not isinstance(uri, str) or not uri:
        problems.append(f"{where}: physicalLocation.artifactLocation.uri is required")
    elif uri.startswith("/"):
        problems.append(f"{where}: {uri} is absolute; code scanning wants paths relative to the repository")
    if "region" in location:
        problems += _region_problems(location["region"], where)
    return problems


def sarif_problems(doc):
    problems = []
    if doc.get("version") != "2.1.0":
        problems.append("version must be \"2.1.0\"")
    if not isinstance(doc.get("$schema"), str):
        problems.append("$schema is missing")
    runs = doc.get("runs")
    if not isinstance(runs, list) or not runs:
        return problems + ["runs must be a non-empty array"]
    for r, run in enumerate(runs):
        driver = run.get("tool", {}).get("driver", {})
        if not isinstance(driver.get("name"), str):
            problems.append(f"runs[{r}].tool.driver.name is required")
        rule_ids = set()
        for i, rule in enumerate(driver.get("rules", [])):
            if not isinstance(rule.get("id"), str):
                problems.append(f"runs[{r}].tool.driver.rules[{i}].id is required")
            rule_ids.add(rule.get("id"))
            level = rule.get("defaultConfiguration", {}).get("level", "warning")
            if level not in LEVELS:
                problems.append(f"rule {rule.get('id')}: level {level}")
        if not isinstance(run.get("results"), list):
            problems.append(f"runs[{r}].results must be an array")
            continue
        for i, result in enumerate(run["results"]):
            where = f"runs[{r}].results[{i}]"
            message = result.get("message", {})
            if not isinstance(message.get("text"), str) and not isinstance(message.get("id"), str):
                problems.append(f"{where}: message.text is required")
            if result.get("ruleId") not in rule_ids:
                problems.append(f"{where}: ruleId {result.get('ruleId')!r} is not among the driver's rules")
            if result.get("level", "warning") not in LEVELS:
                problems.append(f"{where}: level {result.get('level')}")
            locations = result.get("locations", [])
            if not locations:
                problems.append(f"{where}: no location (code scanning needs one)")
            for location in locations:
                problems += _physical_location_problems(location.get("physicalLocation", {}), where)
            for related in result.get("relatedLocations", []):
                if not isinstance(related.get("id", 0), int) or related.get("id", 0) < 0:
                    problems.append(f"{where}: relatedLocations id must be a non-negative integer")
                problems += _physical_location_problems(related.get("physicalLocation", {}), where + " related")
            for fix in result.get("fixes", []):
                for change in fix.get("artifactChanges", []):
                    if "artifactLocation" not in change or not change.get("replacements"):
                        problems.append(f"{where}: a fix's artifactChange needs artifactLocation and replacements")
                    for replacement in change.get("replacements", []):
                        problems += _region_problems(replacement.get("deletedRegion", {}), where + " fix")
    return problems
