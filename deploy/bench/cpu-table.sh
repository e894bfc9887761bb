# shellcheck shell=bash
# cpu_table COLUMNS LINE...: the CPU| lines among LINE (deploy/bench/load/CpuSample.java's line()) as a Markdown
# table whose columns are the first line's names (its gateway shown as nginx); COLUMNS=phase puts each line's phase
# in a first column, COLUMNS=processes leaves it out.
cpu_table() {
  local columns="$1" line header="" row cell
  local -a f
  shift
  for line in "$@"; do
    [[ "$line" == CPU\|* ]] || continue
    IFS='|' read -r -a f <<<"$line"
    if [[ -z "$header" ]]; then
      header="|"
      [[ "$columns" != phase ]] || header+=" phase |"
      for cell in "${f[@]:3}"; do
        header+=" ${cell%%=*} |"
      done
      sed 's/ gateway / nginx /' <<<"$header"
      sed 's/[^|]//g; s/|/|---/g; s/---$//' <<<"$header"
    fi
    row="|"
    [[ "$columns" != phase ]] || row+=" ${f[1]} |"
    for cell in "${f[@]:3}"; do
      row+=" ${cell#*=} |"
    done
    echo "$row"
  done
}
