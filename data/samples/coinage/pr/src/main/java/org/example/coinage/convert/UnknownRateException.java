package org.example.coinage.convert;

import org.example.coinage.Currency;

/** No provider knows the rate of a conversion. CGEP-3, "Conversion rounding". */
public class UnknownRateException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnknownRateException(Currency from, Currency to) {
        super("no rate from " + from + " to " + to);
    }
}
