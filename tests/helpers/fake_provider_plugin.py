"""A stand-in third-party package: the factory an entry point in `loopscope.providers` would name."""

from executor import ModelReply


class EchoModel:
    def __init__(self, name):
        self.model_name = f"echo-{name}"

    def generate(self, prompt, stop):
        return ModelReply("Final Answer: " + prompt[-20:])


def create(request):
    return EchoModel(request.name)


def broken(request):
    raise AssertionError("never called")
