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
     * unit. An unknown rate is an UnknownRateException.
     */
    public Money convert(Money m, Currency target) {
        return convert(m, target, RoundingMode.HALF_UP);
    }

    /**
     * The amount in the target currency, rounded to its minor unit with
     * the mode. CGEP-3, "Conversion rounding".
     *
     * @throws UnknownRateException when the provider knows no rate
     * @throws IllegalArgumentException for RoundingMode.UNNECESSARY, which
     *     cannot round
     */
    public Money convert(Money m, Currency target, RoundingMode mode) {
        if (mode == RoundingMode.UNNECESSARY) {
            throw new IllegalArgumentException("rounding mode UNNECESSARY cannot round a conversion");
        }
        BigDecimal rate = rates.rate(m.currency(), target)
                .orElseThrow(() -> new UnknownRateException(m.currency(), target));
        BigDecimal v = m.amount().multiply(rate).setScale(target.digits(), mode);
        return Money.ofMinor(v.movePointRight(target.digits()).longValueExact(), target);
    }
}
