"""The 909 lab (SPEC 15): judge a person's LeetCode 909 solution, and the breadth-first
search as data for ``snl learn``.

No Textual here: ``boards`` chooses the boards a judge tries, ``runner`` runs the
solution in its own process with time and memory limits, ``judge`` compares its answers
with snl's solver and shrinks the first failure, ``mistakes`` recognises the typical wrong
answers, and ``search`` records the textbook search step by step for the learn screen.
"""
