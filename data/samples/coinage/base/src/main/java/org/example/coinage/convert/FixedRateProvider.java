package org.example.coinage.convert;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.example.coinage.Currency;

/** Rates given up front; a currency always converts to itself at 1. */
public final class FixedRateProvider implements ExchangeRateProvider {
    private final Map<String, BigDecimal> rates = new HashMap<>();

    /** Adds the rate from one currency to another; it must be positive. */
    public FixedRateProvider with(Currency from, Currency to, String rate) {
        BigDecimal r = new BigDecimal(rate);
        if (r.signum() <= 0) {
            throw new IllegalArgumentException("rate must be positive: " + rate);
        }
        rates.put(key(from, to), r);
        return this;
    }

    private static String key(Currency from, Currency to) {
        return from.code() + "/" + to.code();
    }

    @Override
    public Optional<BigDecimal> rate(Currency from, Currency to) {
        if (from == to) {
            return Optional.of(BigDecimal.ONE);
        }
        return Optional.ofNullable(rates.get(key(from, to)));
    }
}
