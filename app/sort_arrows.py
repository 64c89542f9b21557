"""Sort arrows that point the way people read them: ▲ smallest first, ▼ largest first.

Qt's header hands styles the opposite flag for each order (ascending as "sort down"), and
Fusion, the style on Linux desktops without a theme, draws the flag as named: a list with
the highest similarity index first showed ▲, which a teacher reads as lowest first.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QProxyStyle, QStyle, QStyleOptionHeader, QWidget


class SortArrowStyle(QProxyStyle):
    """The application's style, with a header's sort arrow drawn from its sort order."""

    def drawPrimitive(self, element, option, painter, widget=None) -> None:
        if (
            element == QStyle.PrimitiveElement.PE_IndicatorHeaderArrow
            and isinstance(widget, QHeaderView)
            and isinstance(option, QStyleOptionHeader)
        ):
            option = QStyleOptionHeader(option)
            ascending = widget.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
            option.sortIndicator = (
                QStyleOptionHeader.SortIndicator.SortUp
                if ascending
                else QStyleOptionHeader.SortIndicator.SortDown
            )
        super().drawPrimitive(element, option, painter, widget)


def fix_sort_arrows(window: QWidget) -> None:
    """Give every header under `window` arrows that point the way the list is sorted."""
    style = SortArrowStyle()
    style.setParent(window)  # kept alive as long as the headers
    for header in window.findChildren(QHeaderView):
        header.setStyle(style)
