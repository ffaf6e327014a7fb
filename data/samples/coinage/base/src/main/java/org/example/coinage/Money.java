package org.example.coinage;

import java.math.BigDecimal;
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
