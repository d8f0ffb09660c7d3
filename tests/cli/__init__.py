"""Tests of `loopscope` subcommands run as a user would."""
