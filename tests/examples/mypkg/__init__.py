"""The package of the README's quick example (``sut="mypkg.adapter:stream"``): a stand-in for yours."""
