package org.example.coinage.convert;

import java.math.BigDecimal;
import java.util.Optional;
import org.example.coinage.Currency;

/**
 * Where exchange rates come from. A rate from A to B is how many units of B
 * one unit of A buys.
 */
public interface ExchangeRateProvider {
    /** The rate from one currency to another, or empty when unknown. */
    Optional<BigDecimal> rate(Currency from, Currency to);
}
