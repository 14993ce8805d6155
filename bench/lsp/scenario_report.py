"""Markdown tables and the issue's targets for lsp_bench.py --scenarios (numbers from scenario_bench)."""
import math

MEMORY_TARGET_MB = 500  # 500 MB = 500e6 bytes


def ms(value):
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.0f} ms"


def server_row(name, e, args):
    if not e["first"] and not e["edits"]:
        return f"| {name} | FAILED | | | | | | |"
    memory = e.get("memory_kib")
    rss = (f"{memory['VmRSS'] / 1024:.0f} MiB ({memory['VmHWM'] / 1024:.0f} MiB)" if memory else "—")
    unsettled = sum(not s["settled"] for s in e["first"] + e["edits"])
    flag = f" ({unsettled} never settled)" if unsettled else ""
    return (f"| {name}{' (errors)' if e['errors'] else ''}{flag} | {ms(e['first_first_median_ms'])} "
            f"| {ms(e['first_final_median_ms'])} | {ms(e['first_final_cpu_median_ms'])} "
            f"| {ms(e['edit_first_median_ms'])} (p90 {ms(e['edit_first_p90_ms'])}) "
            f"| {ms(e['edit_final_median_ms'])} (p90 {ms(e['edit_final_p90_ms'])}) "
            f"| {ms(e['edit_final_cpu_median_ms'])} | {rss} |")


def verdict(ours, theirs):
    if any(v is None or math.isnan(v) for v in (ours, theirs)):
        return "not measured"
    return f"{'met' if ours <= theirs else 'NOT met'} ({ours:.0f} vs {theirs:.0f} ms, {ours / theirs:.2f}x)"


def targets(entry):
    servers = entry["servers"]
    ours, theirs = servers.get("kernel-lsp"), servers.get("clangd-19")
    lines = []
    if ours and theirs:
        for label, key in (("first diagnostics (first publish)", "first_first_median_ms"),
                           ("first diagnostics (final publish)", "first_final_median_ms"),
                           ("median re-lint (first publish)", "edit_first_median_ms"),
                           ("median re-lint (final publish)", "edit_final_median_ms")):
            lines.append(f"- {label} no slower than clangd: {verdict(ours[key], theirs[key])}")
    if ours and ours.get("memory_kib"):
        mb = ours["memory_kib"]["VmRSS"] * 1024 / 1e6
        lines.append(f"- memory with {entry['memory_files']} files open under {MEMORY_TARGET_MB} MB: "
                     f"{'met' if mb < MEMORY_TARGET_MB else 'NOT met'} ({mb:.0f} MB VmRSS)")
    return lines


def print_report(results, args):
    for name, entry in results["scenarios"].items():
        if "skipped" in entry:
            print(f"\n### {name}: skipped ({entry['skipped']})")
            continue
        print(f"\n### {name}: {entry['file_name']} ({entry['lines']} lines); kernel-lsp: {entry['kernel_lsp_archs']}; "
              f"clangd: {entry['clangd_arch']}\n")
        print(f"| server | first diagnostics, first publish (median of {args.runs}) | final publish | its CPU time "
              f"| re-lint after 1-char edit, first publish (median of {args.edits}) | final publish | its CPU time "
              f"| RSS with {entry['memory_files'] or '—'} files open (peak) |")
        print("|---|---|---|---|---|---|---|---|")
        for server, e in entry["servers"].items():
            print(server_row(server, e, args))
        for line in targets(entry):
            print(line)
        for server, e in entry["servers"].items():
            for error in e["errors"]:
                print(f"- **{server} failed**: {error.splitlines()[0]}")
