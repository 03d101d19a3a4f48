"""The stable names a script reads where a sentence says the same thing: what kind of error
refused an order. Each is an enumeration here, its values the only ones a document may hold;
the sentences beside them (`error`) may change their words in any version, never these.
"""

from typing import Literal, get_args

# The kind of the error that refused an order (`kind` in an order-result's `rejected`): the
# error object's kinds of an order refused (base/errors.py), exit 1.
OrderKind = Literal["order_syntax", "ambiguous_order", "illegal_order", "dice", "dice_sheet",
                    "stale_view", "order_rejected"]
ORDER_KINDS: tuple[str, ...] = get_args(OrderKind)
