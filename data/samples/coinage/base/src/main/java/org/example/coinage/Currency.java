package org.example.coinage;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A currency: its ISO 4217 code and how many decimal digits its minor unit
 * has (2 for the euro's cent, 0 for the yen). Currencies are interned: one
 * object per code.
 */
public final class Currency implements Comparable<Currency> {
    private static final Map<String, Currency> KNOWN = new TreeMap<>();

    public static final Currency EUR = register("EUR", 2);
    public static final Currency USD = register("USD", 2);
    public static final Currency GBP = register("GBP", 2);
    public static final Currency CHF = register("CHF", 2);
    public static final Currency JPY = register("JPY", 0);
    public static final Currency BHD = register("BHD", 3);

    private final String code;
    private final int digits;

    private Currency(String code, int digits) {
        this.code = code;
        this.digits = digits;
    }

    private static synchronized Currency register(String code, int digits) {
        Currency c = new Currency(code, digits);
        KNOWN.put(code, c);
        return c;
    }

    /** The currency with the code, or an IllegalArgumentException. */
    public static synchronized Currency of(String code) {
        Currency c = KNOWN.get(code);
        if (c == null) {
            throw new IllegalArgumentException("unknown currency " + code);
        }
        return c;
    }

    /** Whether a currency has the code. */
    public static synchronized boolean isKnown(String code) {
        return KNOWN.containsKey(code);
    }

    /** Every known currency code, sorted. */
    public static synchronized Iterable<String> codes() {
        return Collections.unmodifiableSet(KNOWN.keySet());
    }

    public String code() {
        return code;
    }

    /** The decimal digits of the minor unit. */
    public int digits() {
        return digits;
    }

    @Override
    public int compareTo(Currency o) {
        return code.compareTo(o.code);
    }

    @Override
    public String toString() {
        return code;
    }
}
