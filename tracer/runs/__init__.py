"""Many runs at once (`loopscope runs`): finding traces, a catalogue that caches their rows, conditions and totals over them."""
