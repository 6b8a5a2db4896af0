"""What ``help`` prints in ``cardlogic live`` for Literature: every event's forms and every command."""

HELP = """Type an event, or a command. Events:
  bob ann 5s +        Bob asks Ann for 5S: yes   (short form; - for no; the answer may be left out when I was asked)
  Bob asks Ann for 5S: no                        (record notation)
  Cat claims low-hearts: Cat 2H 3H; Eve 4H 5H 6H 7H => correct
  Cat passes to Eve
Names and cards in any case; a name by any prefix no other name shares (b for Bob).
Commands:
  advise       the advice now: who is to move, the recommendation, the best asks, the claims worth a thought
  undo [N]     take back the last event (or the last N)
  save FILE    write the game so far to FILE (it is also autosaved after every change)
  grid         P(player holds card) for every card in play (also: belief)
  why CARD     the events that placed or ruled out CARD at each player, by line of the autosave record
  hand         my hand now
  exposed      what the other players can infer about my hand
  help         this text
  quit         leave (also: exit, Ctrl-D); everything is already saved
On a terminal, Tab completes names, cards, sets and commands, and Up/Down recall earlier lines."""
