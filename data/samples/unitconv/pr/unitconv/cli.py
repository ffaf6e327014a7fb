"""Command line: python3 -m unitconv QUANTITY TARGET."""

import argparse
import sys

from .errors import UnitError
from .format import format_quantity
from .parse import parse_quantity, parse_unit
from .units import symbols


def main(argv=None, out=None, err=None):
    out = out or sys.stdout
    err = err or sys.stderr
    parser = argparse.ArgumentParser(
        prog="unitconv",
        description="Convert a quantity between units. Units may be expressions such as km/h or kg*m/s^2.",
    )
    parser.add_argument("quantity", nargs="?", help='a value and a unit, such as "3.5 km" or "36 km/h"')
    parser.add_argument("target", nargs="?", help="the unit to convert to")
    parser.add_argument("-p", "--precision", type=int, default=6, help="significant digits (default 6)")
    parser.add_argument("--ascii", action="store_true", help="write degC and degF instead of °C and °F")
    parser.add_argument("--list", action="store_true", help="list the known units and exit")
    args = parser.parse_args(argv)
    if args.list:
        for symbol in symbols():
            print(symbol, file=out)
        return 0
    if args.quantity is None or args.target is None:
        print("unitconv: a quantity and a target unit are required", file=err)
        return 2
    try:
        result = parse_quantity(args.quantity).to(parse_unit(args.target))
        print(format_quantity(result, args.precision, ascii=args.ascii), file=out)
    except (UnitError, ValueError) as e:
        print(f"unitconv: {e}", file=err)
        return 1
    return 0
