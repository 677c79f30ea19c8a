from enum import StrEnum


class Channel(StrEnum):
    API = "api"
    BOX_OFFICE = "box_office"
    ONLINE = "online"
    RESELLER = "reseller"

    def __str__(self) -> str:
        return str(self.value)
