package org.example.coinage;

/** An operation mixed two currencies. */
public class CurrencyMismatchException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public CurrencyMismatchException(Currency a, Currency b) {
        super("currency mismatch: " + a + " and " + b);
    }
}
