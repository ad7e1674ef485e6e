# bash completion of perf: this perf's commands and those of the system perf
# behind it, in perf's style.  Installed by `make install` as
# PREFIX/share/bash-completion/completions/perf; loaded by bash-completion, or
# sourced by hand (`. perf-completion.bash`).
#
#	perf <TAB>			the commands (perf --list-cmds)
#	perf CMD -<TAB>			its long options (perf CMD --list-opts)
#	perf help <TAB>			the commands
#	perf probe -d/-l <TAB>		the probe events (perf probe -l)
#	perf probe ... %<TAB>		the cached and SDT events (perf probe --cache --list)
#	perf probe -x BIN -a/-F <TAB>	the functions of BIN (perf probe -x BIN -F)
#	perf CMD -e <TAB>		the events (perf list)
# shellcheck shell=bash

# The words of the line up to the cursor, split at blanks only (not at
# COMP_WORDBREAKS' ':' and '='), into __perf_words; __perf_cword indexes
# the current one.  Without COMP_LINE (a script driving _perf): COMP_WORDS.
__perf_split_line()
{
	local line
	if [[ -n ${COMP_LINE-} ]]; then
		line=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
		read -r -a __perf_words <<<"$line"
		if [[ -z $line || $line == *[[:space:]] ]]; then
			__perf_words+=("")
		fi
		__perf_cword=$((${#__perf_words[@]} - 1))
	else
		__perf_words=("${COMP_WORDS[@]}")
		__perf_cword=$COMP_CWORD
	fi
}

# COMPREPLY: the words of $1 starting with $2 (bash splits words at ':' and
# '=': only the part after the last of them in $2 is replaced).
__perf_reply()
{
	local cur=$2 w trim=
	COMPREPLY=()
	if [[ $COMP_WORDBREAKS == *:* && -n ${COMP_LINE-} && $cur == *[:=]* ]]; then
		trim=${cur%"${cur##*[:=]}"}
	fi
	for w in $1; do
		[[ $w == "$cur"* ]] && COMPREPLY+=("${w#"$trim"}")
	done
}

# The probe events, as `perf probe -l` names them.
__perf_probe_events()
{
	"$1" probe -l 2>/dev/null | awk '{ print $1 }'
}

# The target words of a perf probe command line: -x BIN, --exec=BIN, -m MOD.
__perf_probe_target()
{
	local i words=("$@")
	for ((i = 0; i < ${#words[@]}; i++)); do
		case ${words[i]} in
		-x | --exec | -m | --module) printf '%s\n' "${words[i]}" "${words[i + 1]-}" ;;
		--exec=* | --module=*) printf '%s\n' "${words[i]}" ;;
		esac
	done
}

# The cached events, SDT ones among them, '%'-prefixed (perf probe
# %[GROUP:]EVENT): the named entries of the probe caches (of the -x target
# when there is one).
__perf_cached_events()
{
	local perf=$1 target
	shift
	mapfile -t target < <(__perf_probe_target "$@")
	"$perf" probe --cache --list "${target[@]}" 2>/dev/null |
		awk '!/\):$/ && $1 ~ /^[A-Za-z_][^=]*=/ { sub(/=.*/, "", $1); print "%" $1 }' | sort -u
}

# The functions of the target of the words (-x BIN, --exec=BIN, -m MOD).
__perf_probe_funcs()
{
	local perf=$1 target
	shift
	mapfile -t target < <(__perf_probe_target "$@")
	"$perf" probe "${target[@]}" -F 2>/dev/null
}

__perf_probe()
{
	local perf=$1 cur=$2 prev=$3
	shift 3
	case $cur in
	--del=* | --list=*)
		__perf_reply "$(__perf_probe_events "$perf" | sed "s/^/${cur%%=*}=/")" "$cur"
		return
		;;
	%*)
		__perf_reply "$(__perf_cached_events "$perf" "$@")" "$cur"
		return
		;;
	-*)
		__perf_reply "$("$perf" probe --list-opts 2>/dev/null)" "$cur"
		return
		;;
	esac
	case $prev in
	-d | --del | -l | --list)
		__perf_reply "$(__perf_probe_events "$perf")" "$cur"
		;;
	-x | --exec | -m | --module | -k | --vmlinux | -s | --source | --symfs | --export | --import | --embed)
		COMPREPLY=()
		;;
	*)
		__perf_reply "$(__perf_probe_funcs "$perf" "$@")" "$cur"
		;;
	esac
}

_perf()
{
	local __perf_words __perf_cword cur prev perf cmd i
	__perf_split_line
	cur=${__perf_words[__perf_cword]}
	prev=
	((__perf_cword > 0)) && prev=${__perf_words[__perf_cword - 1]}
	perf=${__perf_words[0]}
	command -v "$perf" >/dev/null 2>&1 || perf=perf
	cmd=
	for ((i = 1; i < __perf_cword; i++)); do
		case ${__perf_words[i]} in
		-*) ;;
		*)
			cmd=${__perf_words[i]}
			break
			;;
		esac
	done
	COMPREPLY=()
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			__perf_reply "$("$perf" --list-opts 2>/dev/null)" "$cur"
		else
			__perf_reply "$("$perf" --list-cmds 2>/dev/null)" "$cur"
		fi
		return 0
	fi
	case $cmd in
	help)
		__perf_reply "$("$perf" --list-cmds 2>/dev/null)" "$cur"
		;;
	probe)
		__perf_probe "$perf" "$cur" "$prev" "${__perf_words[@]:i+1:__perf_cword-i-1}"
		;;
	*)
		if [[ $cur == -* ]]; then
			__perf_reply "$("$perf" "$cmd" --list-opts 2>/dev/null)" "$cur"
		elif [[ $prev == -e || $prev == --event ]]; then
			__perf_reply "$("$perf" list 2>/dev/null | awk '/\]$/ { print $1 }')" "$cur"
		fi
		;;
	esac
	return 0
}

complete -o default -F _perf perf
