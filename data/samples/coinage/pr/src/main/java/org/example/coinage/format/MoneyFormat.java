package org.example.coinage.format;

import java.math.BigDecimal;
import org.example.coinage.Currency;
import org.example.coinage.Money;

/** Writes money as text, and reads it back: the amount, then the code. */
public final class MoneyFormat {
    /** The plain format: "1234.50 EUR". */
    public static final MoneyFormat PLAIN = new MoneyFormat();

    /**
     * The separator between groups of thousands; NUL for none. Only
     * withGrouping sets it, on the format it returns.
     */
    private char grouping;

    private MoneyFormat() {
    }

    /**
     * The format that separates groups of three digits of the whole part
     * with the separator: "1,234,567.89 USD". CGEP-3, "Grouping".
     *
     * @throws IllegalArgumentException for a digit, '.' or '-', which
     *     would make the text ambiguous
     */
    public MoneyFormat withGrouping(char separator) {
        if (Character.isDigit(separator) || separator == '.' || separator == '-') {
            throw new IllegalArgumentException("bad grouping separator '" + separator + "'");
        }
        MoneyFormat f = new MoneyFormat();
        f.grouping = separator;
        return f;
    }

    /** The money as text. */
    public String format(Money m) {
        String s = m.amount().toPlainString();
        if (grouping == '\0') {
            return s + " " + m.currency().code();
        }
        int start = s.startsWith("-") ? 1 : 0;
        int end = s.indexOf('.') < 0 ? s.length() : s.indexOf('.');
        StringBuilder b = new StringBuilder(s.substring(0, start));
        for (int i = start; i < end; i++) {
            if (i > start && (end - i) % 3 == 0) {
                b.append(grouping);
            }
            b.append(s.charAt(i));
        }
        return b.append(s.substring(end)).append(' ').append(m.currency().code()).toString();
    }

    /**
     * Reads "12.50 EUR", "EUR 12.50" or "-3.10 USD": an amount and a
     * currency code, either first, separated by blanks; the code comes
     * first when the first word is three capital letters. CGEP-3, "Parsing".
     *
     * @throws MoneyFormatException when the text is not one amount and one
     *     known currency code, or has more decimals than the currency's
     *     minor unit
     */
    public static Money parse(String text) {
        String[] words = text.trim().split("\\s+");
        if (words.length != 2) {
            throw new MoneyFormatException(text, words.length < 2 ? "no currency" : "too many words");
        }
        boolean codeFirst = words[0].matches("[A-Z]{3}");
        String code = codeFirst ? words[0] : words[1];
        String amount = codeFirst ? words[1] : words[0];
        if (!Currency.isKnown(code)) {
            throw new MoneyFormatException(text, "unknown currency " + code);
        }
        Currency c = Currency.of(code);
        BigDecimal d;
        try {
            d = new BigDecimal(amount);
        } catch (NumberFormatException e) {
            throw new MoneyFormatException(text, "not a number");
        }
        if (d.scale() > c.digits()) {
            throw new MoneyFormatException(text, "too many decimals for " + c + " (" + c.digits() + ")");
        }
        return Money.of(d.toPlainString(), c);
    }
}
