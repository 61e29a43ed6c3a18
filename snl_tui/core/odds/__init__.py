"""The odds of random play: the board's Markov chain and every figure read off it.

``analysis`` is the library's ``analyze``; ``markov`` builds the chain of one board from the
engine's tables; ``exact`` and ``exact_wins`` give the same figures as fractions;
``standing`` the odds from where the players stand (the hint panel); ``report`` writes them.
"""
