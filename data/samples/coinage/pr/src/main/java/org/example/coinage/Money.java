package org.example.coinage;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An amount of money: a whole number of minor units (cents) of one
 * currency. Money is immutable; arithmetic returns new values and never
 * mixes currencies.
 */
public final class Money implements Comparable<Money> {
    private final long minor;
    private final Currency currency;

    private Money(long minor, Currency currency) {
        this.minor = minor;
        this.currency = Objects.requireNonNull(currency, "currency");
    }

    /** The amount of minor units of the currency. */
    public static Money ofMinor(long minor, Currency currency) {
        return new Money(minor, currency);
    }

    /**
     * The amount written as a decimal ("12.50"); it may not have more
     * decimals than the currency's minor unit.
     */
    public static Money of(String amount, Currency currency) {
        BigDecimal d = new BigDecimal(amount);
        if (d.scale() > currency.digits()) {
            throw new IllegalArgumentException("too many decimals for " + currency + " (" + currency.digits() + "): " + amount);
        }
        return new Money(d.movePointRight(currency.digits()).longValueExact(), currency);
    }

    /** Zero of the currency. */
    public static Money zero(Currency currency) {
        return new Money(0, currency);
    }

    public long minor() {
        return minor;
    }

    public Currency currency() {
        return currency;
    }

    /** The amount as a decimal with the currency's digits. */
    public BigDecimal amount() {
        return BigDecimal.valueOf(minor, currency.digits());
    }

    public boolean isZero() {
        return minor == 0;
    }

    public boolean isNegative() {
        return minor < 0;
    }

    public Money plus(Money o) {
        check(o);
        return new Money(Math.addExact(minor, o.minor), currency);
    }

    public Money minus(Money o) {
        check(o);
        return new Money(Math.subtractExact(minor, o.minor), currency);
    }

    public Money times(long factor) {
        return new Money(Math.multiplyExact(minor, factor), currency);
    }

    public Money negate() {
        return new Money(Math.negateExact(minor), currency);
    }

    /**
     * Splits the amount into parts proportional to the ratios, in minor
     * units, losing nothing: each part gets its share rounded down, and the
     * minor units left over go one each to the first parts, in order.
     * CGEP-3, "Allocation".
     *
     * @param ratios one non-negative ratio per part, not all zero
     * @return the parts, in the order of the ratios
     * @throws IllegalArgumentException for no ratios, a negative ratio, or
     *     ratios that sum to zero
     */
    public List<Money> allocate(int... ratios) {
        if (ratios.length == 0) {
            throw new IllegalArgumentException("no ratios");
        }
        long total = 0;
        for (int r : ratios) {
            if (r < 0) {
                throw new IllegalArgumentException("negative ratio " + r);
            }
            total += r;
        }
        if (total == 0) {
            throw new IllegalArgumentException("ratios sum to zero");
        }
        long[] parts = new long[ratios.length];
        long left = minor;
        for (int i = 0; i < ratios.length; i++) {
            parts[i] = Math.floorDiv(Math.multiplyExact(minor, ratios[i]), total);
            left -= parts[i];
        }
        for (int i = 0; left > 0; i = (i + 1) % parts.length) {
            if (ratios[i] > 0) {
                parts[i]++;
                left--;
            }
        }
        List<Money> out = new ArrayList<>(parts.length);
        for (long p : parts) {
            out.add(new Money(p, currency));
        }
        return Collections.unmodifiableList(out);
    }

    private void check(Money o) {
        if (o.currency != currency) {
            throw new CurrencyMismatchException(currency, o.currency);
        }
    }

    @Override
    public int compareTo(Money o) {
        check(o);
        return Long.compare(minor, o.minor);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Money)) {
            return false;
        }
        Money m = (Money) o;
        return m.minor == minor && m.currency == currency;
    }

    @Override
    public int hashCode() {
        return Objects.hash(minor, currency.code());
    }

    /** "12.50 EUR". */
    @Override
    public String toString() {
        return amount().toPlainString() + " " + currency;
    }
}
