"""One module per `loopscope` subcommand."""
