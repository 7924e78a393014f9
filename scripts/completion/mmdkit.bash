# bash completion for mmdkit (installed as share/bash-completion/completions/mmdkit).
# Commands come from `mmdkit help --commands`, options from `mmdkit COMMAND --help`, so they are
# always those of the installed binary.
_mmdkit() {
  local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} cmd="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      -*) ;;
      *) cmd=${COMP_WORDS[i]}; break ;;
    esac
  done
  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$("$prog" help --commands 2>/dev/null | cut -f1) help" -- "$cur"))
    fi
    return
  fi
  if [[ $cmd == help ]]; then
    COMPREPLY=($(compgen -W "$("$prog" help --commands 2>/dev/null | cut -f1) --commands" -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$("$prog" "$cmd" --help 2>/dev/null | grep -oE -- '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | tr -d ' ,' | sort -u)" -- "$cur"))
  else
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -F _mmdkit mmdkit
