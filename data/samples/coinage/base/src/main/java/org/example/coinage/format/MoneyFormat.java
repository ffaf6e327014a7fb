package org.example.coinage.format;

import org.example.coinage.Money;

/** Writes money as text: the amount with the currency's digits, then the code. */
public final class MoneyFormat {
    /** The plain format: "1234.50 EUR". */
    public static final MoneyFormat PLAIN = new MoneyFormat();

    private MoneyFormat() {
    }

    /** The money as text. */
    public String format(Money m) {
        return m.amount().toPlainString() + " " + m.currency().code();
    }
}
