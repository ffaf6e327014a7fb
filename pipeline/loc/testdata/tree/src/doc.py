"""Module docstring
over two lines."""
import os


def f(x):
    '''Function docstring.'''
    s = "# not a comment"
    t = """assigned
    multi-line string

    with a blank line"""
    # a comment
    return s + t  # trailing
