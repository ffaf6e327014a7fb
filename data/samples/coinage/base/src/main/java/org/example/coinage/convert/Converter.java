package org.example.coinage.convert;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.example.coinage.Currency;
import org.example.coinage.Money;

/** Converts money between currencies with the rates of a provider. */
public final class Converter {
    private final ExchangeRateProvider rates;

    public Converter(ExchangeRateProvider rates) {
        this.rates = rates;
    }

    /**
     * The amount in the target currency, rounded half up to its minor
     * unit. An unknown rate is an IllegalArgumentException.
     */
    public Money convert(Money m, Currency target) {
        BigDecimal rate = rates.rate(m.currency(), target)
                .orElseThrow(() -> new IllegalArgumentException("no rate from " + m.currency() + " to " + target));
        BigDecimal v = m.amount().multiply(rate).setScale(target.digits(), RoundingMode.HALF_UP);
        return Money.ofMinor(v.movePointRight(target.digits()).longValueExact(), target);
    }
}
