"""What ``help`` prints in ``cardlogic live`` for Literature: every event's forms and every command."""

HELP = """Type an event, or a command. Events, short forms first:
  bob ann 5s +       Bob asks Ann for 5S: yes (- for no; no answer needed when
                     I was the one asked)
  +  or  -           I made the ask advised to me; the answer was yes or no
  cat claims lh      Cat claims low-hearts: filled in when my team's cards are
                     certain, else the best assignment is shown with P(correct)
                     and the outcome asked for
  cat claims lh ok   ... the outcome given at once: ok, void or opp, then who
  dan claims hs ok bob 9s    held any card I cannot know
  cat eve            Cat passes to Eve (also: cat passes eve)
  Bob asks Ann for 5S: no                            (the record notation)
  Cat claims low-hearts: Cat 2H 3H; Eve 4H 5H 6H 7H => correct
  Cat passes to Eve
Names, cards and sets in any case, each by any prefix no other one shares.
Literature commands:
  advise       the full advice: recommendation, claims, best asks
  grid         P(player holds card) for every card in play (also: belief)
  why CARD     where CARD is and the fewest events that force it, by line
  hand         my hand now
  exposed      what the other players can infer about my hand"""
