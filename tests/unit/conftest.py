"""Hypothesis settings for the core's property tests.

No deadlines: the suite runs on loaded 2-core machines, where one example can take ten
times as long as usual; a per-example time limit would be a race with the clock.
"""

from hypothesis import settings

settings.register_profile("snl", deadline=None)
settings.load_profile("snl")
