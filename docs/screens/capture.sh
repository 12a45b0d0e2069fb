#!/bin/bash
# Capture a terminal screen of `dicetable play` the way a person sees it, in a tmux window.
#
#   docs/screens/capture.sh GAME PLAYERS COLUMNS LINES OUTFILE [TYPED-LINE...]
#
# Starts `dicetable play GAME -p PLAYERS --seed 21` (greedy bots) in a detached tmux window of
# COLUMNS x LINES, waits for the first prompt, types each TYPED-LINE (3 s apart), saves what
# the window shows to OUTFILE, then quits the game (it is saved in a scratch folder, deleted).
set -eu
game=$1; players=$2; cols=$3; lines=$4; out=$(realpath -m "$5"); shift 5
here=$(cd "$(dirname "$0")/../.." && pwd)
session=capture$$
scratch=$(mktemp -d)
tmux new-session -d -s "$session" -x "$cols" -y "$lines" -c "$scratch" "bash --norc"
sleep 0.3
tmux send-keys -t "$session" "clear; $here/.venv/bin/dicetable play $game -p $players --seed 21" Enter
for _ in $(seq 1 60); do
  tmux capture-pane -t "$session" -p | grep -q "^> *$" && break
  sleep 0.5
done
for typed in "$@"; do
  tmux send-keys -t "$session" "$typed" Enter
  sleep 3
done
tmux capture-pane -t "$session" -p > "$out"
tmux send-keys -t "$session" "quit" Enter
sleep 1
tmux kill-session -t "$session"
rm -rf "$scratch"
